"""Running the ladder: schedule, lease, play through an executor, record."""
