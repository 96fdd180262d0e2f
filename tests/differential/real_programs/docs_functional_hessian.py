"""torch.autograd.functional.hessian, vhp and hvp, their docstrings' examples:
pow_reducer and pow_adder_reducer.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.functional.hessian.html
        https://pytorch.org/docs/2.13/generated/torch.autograd.functional.vhp.html
        https://pytorch.org/docs/2.13/generated/torch.autograd.functional.hvp.html
        (pytorch/pytorch, torch/autograd/functional.py)
Adapted: the results are printed.
"""
import torch
from torch.autograd.functional import hessian, hvp, vhp


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))
print(hessian(pow_reducer, inputs, create_graph=True).requires_grad)


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))

inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v, create_graph=True))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))

inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))
print(hvp(pow_reducer, inputs, v, create_graph=True))
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))
