"""A match job and where it runs: runners, executors, a Dask cluster, worker set-up."""
