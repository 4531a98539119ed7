"""The rules, compiled: the state machine (`kernel`), turn transitions, read-only queries, cards,
dice and odds over the integer array layout (`layout`), hidden information sampled from a seat's
view (`determinize`), and how kernels are compiled (`jit`)."""
