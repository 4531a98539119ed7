"""Why the linear player chose: each decision's options with the player's own scores and terms
(`model`, made by `options`), in words and as JSON (`words`).

Plain Python over the compiled feature kernels: no kernel is defined here, so this subpackage
stays out of the features package's numba cache guard (`features._cache`).
"""

from features.explain.model import KINDS, Bar, ExplainError, Explanation, Option, Term
from features.explain.options import explain
from features.explain.words import action_words, describe, gene_words, largest, to_json

__all__ = ["KINDS", "Bar", "ExplainError", "Explanation", "Option", "Term", "action_words",
           "describe", "explain", "gene_words", "largest", "to_json"]
