"""torch.autograd.forward_ad's docstrings: dual_level, make_dual, unpack_dual (its
primal and tangent, by name and by position), the tangent gone after the level.

Source: https://pytorch.org/docs/2.13/autograd.html#forward-mode-automatic-differentiation
        (pytorch/pytorch, torch/autograd/forward_ad.py)
Adapted: x, x_t and the function are filled in; results are printed.
"""
import torch
from torch.autograd.forward_ad import dual_level, make_dual, unpack_dual

x = torch.tensor([1., 2., 3.])
x_t = torch.tensor([1., 0., 0.])


def your_fn(x):
    return (x * x).sin()


with dual_level():
    inp = make_dual(x, x_t)
    out = your_fn(inp)
    y, jvp = unpack_dual(out)
    print(y, jvp)
    jvp = unpack_dual(out).tangent
    _, grad = unpack_dual(out)
print(grad is None)
_, grad_after = unpack_dual(out)
print(grad_after is None)
