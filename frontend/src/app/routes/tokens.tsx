import { PageHeader } from "../../components/ui/page-header";
import { QueryState } from "../../components/ui/query-state";
import { useRole } from "../../features/auth/api/get-session";
import { useTokens } from "../../features/tokens/api/list-tokens";
import { NewTokenForm } from "../../features/tokens/components/new-token-form";
import { TokensTable } from "../../features/tokens/components/tokens-table";
import { isOwner } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";

export function TokensRoute() {
  usePageTitle("API tokens");
  const owner = isOwner(useRole());
  return (
    <>
      <PageHeader title="API tokens" />
      {owner ? <TokensPage /> : <p className="muted">Only team owners can see and create API tokens.</p>}
    </>
  );
}

function TokensPage() {
  const tokens = useTokens();
  return (
    <div className="layout-main-side">
      <section aria-labelledby="token-list-heading">
        <h2 id="token-list-heading">Tokens of this team</h2>
        <p className="small muted">
          For scripts, pipelines and the <code>storbench</code> command line. Each acts in this team with its role.
        </p>
        <QueryState isPending={tokens.isPending} error={tokens.error} label="API tokens">
          <TokensTable tokens={tokens.data?.items ?? []} />
        </QueryState>
      </section>
      <NewTokenForm />
    </div>
  );
}
