"""Introduction to PyTorch (YouTube series), "The Fundamentals of Autograd": sin over
linspace, the grad_fn of each step, walking next_functions, and backward.

Source: https://pytorch.org/tutorials/beginner/introyt/autogradyt_tutorial.html
        (pytorch/tutorials, beginner_source/introyt/autogradyt_tutorial.py)
Adapted: no plots.
"""
import math

import torch

a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
print(a)

b = torch.sin(a)
print(b)

c = 2 * b
print(c)

d = c + 1
print(d)

out = d.sum()
print(out)

print('d:')
print(d.grad_fn)
print(d.grad_fn.next_functions)
print(d.grad_fn.next_functions[0][0].next_functions)
print(d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
print(d.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions)
print('\nc:')
print(c.grad_fn)
print('\nb:')
print(b.grad_fn)
print('\na:')
print(a.grad_fn)

out.backward()
print(a.grad)
