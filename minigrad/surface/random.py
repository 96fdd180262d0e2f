"""Random numbers: one numpy generator for rand, randn, randint, dropout and normal_ ...,
which `manual_seed` makes repeatable (the numbers differ from PyTorch's)."""
import numpy as np

_rng = {"generator": np.random.default_rng()}


def manual_seed(seed):
    """Seed minigrad's random numbers (rand, randn).  The numbers differ from PyTorch's."""
    _rng["generator"] = np.random.default_rng(seed)
    return _rng["generator"]


def generator():
    """The generator every random op draws from."""
    return _rng["generator"]
