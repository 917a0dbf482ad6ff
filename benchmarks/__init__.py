"""Benchmarks of aiayn against peer implementations; see BENCHMARKS.md at the repository root."""
