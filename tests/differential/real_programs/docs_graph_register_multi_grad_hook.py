"""torch.autograd.graph.register_multi_grad_hook, its docstring's example: one hook for
four tensors, told which of them got a gradient.

Source: https://pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.register_multi_grad_hook
        (pytorch/pytorch, torch/autograd/graph.py)
Adapted: a second backward and mode="any" are added.
"""
import torch

a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b


def fn(grads):
    print([g is not None for g in grads])


handle = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)

c.sum().backward(retain_graph=True)
d.sum().backward(retain_graph=True)
handle.remove()

torch.autograd.graph.register_multi_grad_hook(
    (a, b), lambda grad: print("any:", grad.shape), mode="any")
(c + d).sum().backward()
