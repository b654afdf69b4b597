"""The grouped view's rollup: per kind of result, counts and a histogram of every figure.

Below the domains that write it (results, hosts) and read it (compare, history); it imports none
of them. `counts` is the bookkeeping (keys, bins, accumulators), `repository` every query,
`service` keeps the rows in step with results, `read` answers grouped views from them.
"""
