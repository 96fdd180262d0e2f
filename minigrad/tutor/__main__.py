"""python -m minigrad.tutor: the same as minigrad-tutor."""
import sys

from minigrad.tutor.cli import main

if __name__ == "__main__":
    sys.exit(main())
