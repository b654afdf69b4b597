"""Log lines as operators read them."""

import io
import logging

from storbench_api.kit.logs import configure_logging


def test_a_logged_exception_is_a_plain_traceback_without_the_frames_variables() -> None:
    # A traceback that renders every frame's variables puts secrets in the log, and rendering a
    # large one took the API 41 s (a 5,000-digit id), during which no other request was answered.
    stream = io.StringIO()
    configure_logging("console", stream)
    secret_token = "sbh-" + "s3cret" * 4
    try:
        raise ValueError(f"bad input of {len(secret_token)} characters")
    except ValueError:
        logging.getLogger("storbench_api.test").exception("request failed")
    written = stream.getvalue()
    assert "ValueError: bad input of 28 characters" in written
    assert "s3cret" not in written
