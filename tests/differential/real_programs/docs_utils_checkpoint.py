"""torch.utils.checkpoint.checkpoint, as its documentation shows it: a function's
activations recomputed in backward instead of kept (use_reentrant=False).

Source: https://pytorch.org/docs/2.13/checkpoint.html
        (pytorch/pytorch, torch/utils/checkpoint.py)
Adapted: a small function of plain tensors.
"""
import torch
from torch.utils.checkpoint import checkpoint

w = torch.randn(3, 3, requires_grad=True)


def block(x):
    return (x @ w).relu() @ w


x = torch.randn(2, 3, requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
y.sum().backward()
print(x.grad)
print(w.grad)
