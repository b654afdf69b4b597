import { CredentialTable, DateTime, LastUsed } from "../../../components/ui/credential-table";
import { StatusBadge } from "../../../components/ui/status-badge";
import type { ApiToken } from "../../../lib/api/types";
import { credentialStatus } from "../../../lib/credential-status";
import { formatDateTime } from "../../../lib/format";
import { useRevokeToken } from "../api/revoke-token";

function tokenName(token: ApiToken): string {
  return token.name ?? `token #${token.id}`;
}

export function TokensTable({ tokens }: { tokens: ApiToken[] }) {
  const revokeMutation = useRevokeToken();
  return (
    <CredentialTable
      caption="API tokens"
      empty="No API tokens yet."
      items={tokens}
      name={tokenName}
      columns={[
        { header: "Role", cell: (token) => token.role ?? "—" },
        { header: "Created", cell: (token) => <DateTime iso={token.created_at} /> },
        { header: "Expires", cell: (token) => <DateTime iso={token.expires_at} empty="never" /> },
        { header: "Last used", cell: (token, now) => <LastUsed iso={token.last_used_at} now={now} /> },
        {
          header: "Status",
          cell: (token, now) => (
            <>
              <StatusBadge status={credentialStatus(token, now)} />
              {token.revoked_at ? <span className="small muted"> {formatDateTime(token.revoked_at)}</span> : null}
            </>
          ),
        },
      ]}
      revocable={(token, now) => credentialStatus(token, now) === "active"}
      revoke={{
        name: (token) => `Revoke token ${tokenName(token)}`,
        confirm: {
          question: (token) => (
            <>
              Revoke <strong>{tokenName(token)}</strong>? Scripts and pipelines using it fail from now on.
            </>
          ),
          groupLabel: (token) => `Confirm revoking ${tokenName(token)}`,
          confirmLabel: "Revoke token",
        },
        pending: revokeMutation.isPending,
        error: revokeMutation.error,
        onRevoke: (token) => revokeMutation.mutate(token.id),
      }}
    />
  );
}
