"""Autograd mechanics, "Behavior of Tensor hooks when Tensor is modified in-place": a
hook registered before an in-place change sees the gradient of the old value, one
registered after sees the gradient of the new value.

Source: https://pytorch.org/docs/2.13/notes/autograd.html#behavior-of-tensor-hooks-when-tensor-is-modified-in-place
        (pytorch/pytorch, docs/source/notes/autograd.rst)
Adapted: fn prints what it gets.
"""
import torch


def fn(name):
    def hook(grad):
        print(name, grad)
    return hook


t = torch.tensor(1., requires_grad=True).sin()
t.cos_()
t.register_hook(fn("registered after cos_"))
t.backward()

t = torch.tensor(1., requires_grad=True).sin()
t.register_hook(fn("registered before cos_"))
t.cos_()
t.backward()
