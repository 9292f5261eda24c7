"""Benchmarks of the project against its peers, measured in the same run on the same input; each
module has ``run(quick) -> list[dict]`` for ``barge bench`` (see ``benchmarks/README.md``)."""
