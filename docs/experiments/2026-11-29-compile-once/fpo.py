"""Run a module with numba's per-function LLVM passes at level FPO (env; unset: as shipped),
the module passes as shipped. From the checkout, with an empty cache:

    FPO=1 NUMBA_CACHE_DIR=$(mktemp -d) /usr/bin/time .venv/bin/python \
        docs/experiments/2026-11-29-compile-once/fpo.py arena.warmup loop
"""
import os
import runpy
import sys

from numba.core import codegen

LEVEL = os.environ.get("FPO")


def _optimize_functions(self, ll_module):
    ll_module.data_layout = self._codegen._data_layout
    for func in ll_module.functions:
        fpm, pb = self._codegen._function_pass_manager(opt=int(LEVEL))
        fpm.run(func, pb)


if LEVEL is not None:
    codegen.CPUCodeLibrary._optimize_functions = _optimize_functions
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__")
