"""Introduction to PyTorch (YouTube series), "The Fundamentals of Autograd": turning
autograd off and on -- requires_grad = False, no_grad as a block and as a decorator,
detach.

Source: https://pytorch.org/tutorials/beginner/introyt/autogradyt_tutorial.html
        (pytorch/tutorials, beginner_source/introyt/autogradyt_tutorial.py)
Adapted: nothing.
"""
import torch

a = torch.ones(2, 3, requires_grad=True)
print(a)

b1 = 2 * a
print(b1)

a.requires_grad = False
b2 = 2 * a
print(b2)

a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3

c1 = a + b
print(c1)

with torch.no_grad():
    c2 = a + b

print(c2)

c3 = a * b
print(c3)


def add_tensors1(x, y):
    return x + y


@torch.no_grad()
def add_tensors2(x, y):
    return x + y


a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3

c1 = add_tensors1(a, b)
print(c1)

c2 = add_tensors2(a, b)
print(c2)

x = torch.rand(5, requires_grad=True)
y = x.detach()

print(x)
print(y)

a = torch.linspace(0., 2. * 3.14, steps=25, requires_grad=True)
try:
    torch.sin_(a)
except RuntimeError as error:
    print("RuntimeError:", error)
