"""The capacity planner: from a workload to a class, a capacity, hosts and a cost."""
