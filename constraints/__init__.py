"""The legal rules, one module per jurisdiction, each rule with its model encoding and its
independent check side by side. ``constraints.registry.RULES`` is the one ordered list."""
