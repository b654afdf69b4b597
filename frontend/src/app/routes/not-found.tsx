import { Link } from "react-router";
import { PageHeader } from "../../components/ui/page-header";
import { usePageTitle } from "../../lib/use-page-title";

export function NotFoundRoute() {
  usePageTitle("Page not found");
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        Nothing lives at this address. <Link to="/">Go to the dashboard</Link>.
      </p>
    </>
  );
}
