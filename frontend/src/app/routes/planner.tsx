import { Link } from "react-router";
import { ApiErrorAlert } from "../../components/ui/api-error-alert";
import { PageHeader } from "../../components/ui/page-header";
import { useRole } from "../../features/auth/api/get-session";
import { useCreateVerificationPlan } from "../../features/planner/api/create-verification-plan";
import { usePlanCapacity, type Candidate, type PlannerRequest } from "../../features/planner/api/plan-capacity";
import { CandidatesTable } from "../../features/planner/components/candidates-table";
import { HeadroomChart } from "../../features/planner/components/headroom-chart";
import { WorkloadForm } from "../../features/planner/components/workload-form";
import { canWrite } from "../../lib/roles";
import { usePageTitle } from "../../lib/use-page-title";

export function PlannerRoute() {
  usePageTitle("Planner");
  const writer = canWrite(useRole());
  const planning = usePlanCapacity();
  const verifying = useCreateVerificationPlan();
  const asked = planning.variables;
  const verify = (candidate: Candidate) => {
    if (asked) verifying.mutate({ ...(asked as PlannerRequest), storage_class_id: candidate.storage_class_id });
  };
  const answer = planning.data;
  const created = verifying.data;
  return (
    <>
      <PageHeader title="Planner" />
      <p className="muted">
        From a workload to a choice: which class, how many GiB, how many client hosts, at what cost, and how far the
        team&apos;s own measurements sit from each spec.
      </p>
      <div className="layout-main-side">
        <section aria-labelledby="candidates-heading">
          <h2 id="candidates-heading">Candidates</h2>
          <ApiErrorAlert error={planning.error} />
          <ApiErrorAlert error={verifying.error} />
          {created ? (
            <p role="status">
              Saved plan <Link to="/plans">{created.plan.name}</Link> ({created.presets.join(", ")}).{" "}
              {created.target_ids.length
                ? `Run it on one of the team's ${created.target_ids.length} target(s) of this class.`
                : "The team has no target of this class yet: add one to run it."}
            </p>
          ) : null}
          {answer ? (
            <>
              <HeadroomChart candidates={answer.candidates} />
              <CandidatesTable
                candidates={answer.candidates}
                canWrite={writer}
                onVerify={verify}
                verifying={verifying.isPending ? 1 : null}
              />
              <p className="small muted">
                Client network:{" "}
                {answer.client.host_nic_mbps == null ? "unknown" : `${answer.client.host_nic_mbps.toLocaleString("en-US")} MB/s`} (
                {answer.client.source})
              </p>
            </>
          ) : (
            <p className="muted">Describe the workload and size the classes.</p>
          )}
        </section>
        <WorkloadForm onSubmit={(request) => planning.mutate(request)} busy={planning.isPending} />
      </div>
    </>
  );
}
