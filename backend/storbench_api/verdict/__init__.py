"""The verdict a run or result opens with: spec, previous run, regression state, worst finding."""
