"""python -m minigrad: a short tour of the engine in the terminal."""
from minigrad.demo import main

if __name__ == "__main__":
    main()
