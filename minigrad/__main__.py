"""python -m minigrad: the tutor launcher (minigrad-tutor); the terminal tour is python -m minigrad.demo."""
import sys

from minigrad.tutor.cli import main

if __name__ == "__main__":
    sys.exit(main())
