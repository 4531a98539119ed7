"""The rules, compiled: the state machine (`kernel`), turn transitions, read-only queries, cards,
dice and odds over the integer array layout (`layout`), and how kernels are compiled (`jit`)."""
