import { CommandBlock } from "../../../components/ui/command-block";
import { QueryState } from "../../../components/ui/query-state";
import { useWorkerSetup, type WorkerSetup } from "../api/get-worker-setup";

/** Says plainly whether a host on another machine can join this server, and if not, what to do. */
export function RemoteHostsNotice({ setup }: { setup: WorkerSetup }) {
  if (setup.accepts_remote_hosts) {
    return (
      <p className="alert alert-ok" role="status" aria-label="Remote hosts">
        Hosts on other machines can join: workers reach this server at <code>{setup.server_url}</code> and the
        broker at <code>{setup.broker}</code>.
      </p>
    );
  }
  return (
    <div className="alert alert-warn" role="status" aria-label="Remote hosts">
      <p>
        <strong>This server cannot accept hosts on other machines yet.</strong> Only a worker on this machine can
        join. To add others, restart storbench with <code>{setup.remote_switch}</code>.
      </p>
      <ul className="alert-list">
        {setup.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

/** The worker's start command for a host registered under a known name. */
export function startCommandFor(setup: WorkerSetup, hostName: string): string {
  return `storbench-worker --server ${setup.server_url} --token-file ${setup.token_file} --name ${hostName} --allow ${setup.directory_placeholder}`;
}

/** How to add a host: the mode, then the commands (install, token in a file, start). */
export function AddHostGuide({ canEnroll }: { canEnroll: boolean }) {
  const setup = useWorkerSetup();
  return (
    <section className="panel" aria-labelledby="add-host-guide-heading">
      <h2 id="add-host-guide-heading">Add a host</h2>
      <QueryState isPending={setup.isPending} error={setup.error} label="how hosts join">
        {setup.data ? (
          <>
            <RemoteHostsNotice setup={setup.data} />
            <ol className="steps">
              <li>
                <p>On the new host, as root (Debian or Ubuntu), install fio and the worker from this server:</p>
                <CommandBlock label="Install command" command={setup.data.install_command} copyLabel="Copy install command" />
              </li>
              <li>
                <p>
                  {canEnroll
                    ? "Create an enrollment token below: it comes with the complete command, the token going to "
                    : "Ask a team owner for an enrollment token, or use Add host for a worker token, and put it in "}
                  <code>{setup.data.token_file}</code> (a file only root reads; never on the command line).
                </p>
              </li>
              <li>
                <p>
                  Start the worker, replacing <code>{setup.data.directory_placeholder}</code> with the directory (or
                  block device) it may benchmark:
                </p>
                <CommandBlock label="Start command" command={setup.data.start_command} copyLabel="Copy start command" />
              </li>
            </ol>
          </>
        ) : null}
      </QueryState>
    </section>
  );
}
