"""Jacobians, Hessians, hvp, vhp, and more: composing function transforms -- jacrev,
jacfwd and hessian of torch.func, the same numbers as torch.autograd.functional.

Source: https://pytorch.org/tutorials/intermediate/jacobians_hessians.html
        (pytorch/tutorials, intermediate_source/jacobians_hessians.py)
Adapted: a small function in place of the tutorial's linear layer; no timing.
"""
import torch
from torch.func import hessian, jacfwd, jacrev


def predict(weight, bias, x):
    return torch.tanh(x @ weight.T + bias)


D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(jacobian.shape)
print(torch.allclose(jacobian, jacfwd(predict, argnums=2)(weight, bias, x)))
print(hessian(lambda x: predict(weight, bias, x).sum())(x).shape)
