"""How far minigrad is from PyTorch's own tests: runs the cases translated from
test/test_autograd.py and autograd_function_db.py (tests/differential/) under both
libraries and prints how many behave the same, and the differences by kind
(tests/differential/ported_failing.py).  A case that differs without an entry there, or
one listed that now passes, is named at the end.

    .venv/bin/python scripts/pytorch_spec.py            # the table
    .venv/bin/python scripts/pytorch_spec.py -v         # and every difference
"""
import argparse
import collections
import importlib.util
import pathlib
import sys
import warnings

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "differential"
FILES = ("cases_pytorch_autograd", "cases_autograd_function_db")


def _load(name):
    spec = importlib.util.spec_from_file_location(f"spec_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(verbose=False):
    harness = _load("harness")
    isolation = _load("isolation")
    listed = _load("ported_failing")
    results = {}                                  # file -> {case name: problems}
    for file in FILES:
        results[file] = {}
        for name, case in list(vars(_load(file)).items()):
            if name.startswith("case_") and callable(case):
                with warnings.catch_warnings(), isolation.minigrad_state_kept():
                    warnings.simplefilter("ignore")
                    results[file][name] = harness.compare(case)
                print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    for file, cases in results.items():
        same = sum(not problems for problems in cases.values())
        print(f"{file}: {same} of {len(cases)} the same ({100 * same / len(cases):.0f} %)")
    failing = {name: problems for cases in results.values()
               for name, problems in cases.items() if problems}
    by_kind = collections.Counter(listed.PORTED_FAILING[name][0] for name in failing
                                  if name in listed.PORTED_FAILING)
    print(f"\n{'kind of difference':<22} cases")
    for kind in listed.KINDS:
        if by_kind[kind]:
            print(f"{kind:<22} {by_kind[kind]:>5}")
    unlisted = sorted(set(failing) - set(listed.PORTED_FAILING))
    stale = sorted(name for name in listed.PORTED_FAILING if name not in failing)
    if unlisted:
        print("\ndiffer, not in ported_failing.py:", ", ".join(unlisted))
    if stale:
        print("\nin ported_failing.py, but the same now:", ", ".join(stale))
    if verbose:
        for name, problems in sorted(failing.items()):
            print(f"\n{name}:")
            for problem in problems[:5]:
                print("   ", problem[:300])
    return not unlisted and not stale


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="print every difference")
    sys.exit(0 if run(parser.parse_args().verbose) else 1)
