"""Studies: synthetic scenarios (``generate``) and sweeps over many scenarios (``sweep``).

Above the engine and the outputs (see docs/architecture.md).
"""
