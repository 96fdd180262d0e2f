"""PyTorch's answers to bad arguments, against minigrad's: runs the seeded bad-argument
generator of tests/differential/bad_arguments.py for any seed and prints the figures
(how often minigrad raises PyTorch's exception type where PyTorch raises, silent
returns, crashes, hangs) and examples of each kind of difference.

    .venv/bin/python scripts/bad_arguments.py --seed 1 --count 2000
    .venv/bin/python scripts/bad_arguments.py --seed 1 --show silent --examples 50
"""
import argparse
import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "differential"
_spec = importlib.util.spec_from_file_location("bad_arguments", HERE / "bad_arguments.py")
bad_arguments = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bad_arguments)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--examples", type=int, default=5,
                        help="examples printed for each difference (default 5)")
    parser.add_argument("--show", action="append", choices=bad_arguments.OUTCOMES,
                        help="print examples of these outcomes only")
    options = parser.parse_args()
    results = bad_arguments.statistics(options.seed, options.count)
    figures = bad_arguments.summary(results)
    print(f"seed {options.seed}: {figures['calls']} calls, PyTorch raises in "
          f"{figures['torch raises']}")
    print(f"  same exception type where PyTorch raises: {figures['same type %']:.1f} %"
          f" (and its key words: {figures['same type and words %']:.1f} %)")
    for outcome in bad_arguments.OUTCOMES:
        print(f"  {outcome:<16} {figures[outcome]:>6}")
    shown = options.show or ("other words", "other type", "silent", "minigrad raises",
                             "crash", "hang")
    for outcome in shown:
        if results[outcome]:
            print(f"\n--- {outcome} ({len(results[outcome])}) ---")
            for item in results[outcome][:options.examples]:
                print("  " + bad_arguments.describe(item))
    return 0


if __name__ == "__main__":
    sys.exit(main())
