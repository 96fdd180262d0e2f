"""Deep Learning with PyTorch: A 60 Minute Blitz, "A Gentle Introduction to
torch.autograd" -- Q = 3a^3 - b^2, backward with an external gradient, and what is
excluded from the DAG.

Source: https://pytorch.org/tutorials/beginner/blitz/autograd_tutorial.html
        (pytorch/tutorials, beginner_source/blitz/autograd_tutorial.py)
Adapted: the torchvision resnet18 part is left out (torch.nn and torchvision).
"""
import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2

external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)

# check if collected gradients are correct
print(9*a**2 == a.grad)
print(-2*b == b.grad)

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)

a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
