"""A list of ids sent as one query parameter: '12,15,19'."""

from storbench_api.errors import Invalid


def parse_id_list(text: str, field_name: str, most: int, what: str = "id") -> list[int]:
    """'3,1,2' → [3, 1, 2] (duplicates dropped), or Invalid naming what to send (ids of `what`)."""
    ids: list[int] = []
    for part in text.split(","):
        item = part.strip()
        if not item:
            continue
        # ASCII digits only (int() refuses '²', and more than 4,300 digits), at most 10 of them.
        if not (item.isascii() and item.isdigit() and len(item) <= 10) or not 1 <= int(item) <= 2**31 - 1:
            raise Invalid(
                f"{field_name}: '{item[:40]}' is not a {what}; send ids separated by commas (e.g. 12,15,19)",
                [{"field": field_name, "value": item[:40], "reason": "not a positive integer id"}],
            )
        if int(item) not in ids:
            ids.append(int(item))
    if len(ids) > most:
        raise Invalid(
            f"{field_name}: {len(ids)} {what}s; at most {most}",
            [{"field": field_name, "reason": f"at most {most} ids"}],
        )
    return ids
