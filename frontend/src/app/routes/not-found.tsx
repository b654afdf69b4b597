import { Link } from "react-router";
import { PageHeader } from "../../components/ui/page-header";

export function NotFoundRoute() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        Nothing lives at this address. <Link to="/">Go to the dashboard</Link>.
      </p>
    </>
  );
}
