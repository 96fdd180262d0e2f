"""NYU Deep Learning (Canziani, LeCun), "02-autograd_tutorial": the graph of
y = x - 2 and its grad_fn chain, z = y * y * 3, a = z.mean(), gradients, the doubling
loop with a vector gradient, no_grad, and the inference example z = w @ x.

Source: https://github.com/Atcold/NYU-DLSP20/blob/master/02-autograd_tutorial.ipynb
        (Atcold/NYU-DLSP20, 02-autograd_tutorial.ipynb)
Adapted: the cells' values are printed; the torchviz drawing is left out.
"""
import torch

x = torch.tensor([[1, 2], [3, 4]], requires_grad=True, dtype=torch.float32)
print(x)
y = x - 2
print(y)
print(y.grad_fn)
print(x.grad_fn)
print(y.grad_fn.next_functions[0][0])
print(y.grad_fn.next_functions[0][0].variable)

z = y * y * 3
a = z.mean()
print(z)
print(a)
a.backward()
print(x.grad)

x = torch.randn(3, requires_grad=True)
y = x * 2
i = 0
while y.data.norm() < 1000:
    y = y * 2
    i += 1
print(y)
gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)
print(x.grad)
print(i)

print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)

n = 3
x = torch.arange(1., n + 1, requires_grad=True)
w = torch.ones(n, requires_grad=True)
z = w @ x
z.backward()
print(x.grad, w.grad, sep='\n')
x = torch.arange(1., n + 1)
w = torch.ones(n, requires_grad=True)
z = w @ x
z.backward()
print(x.grad, w.grad, sep='\n')
with torch.no_grad():
    x = torch.arange(1., n + 1)
    w = torch.ones(n, requires_grad=True)
    z = w @ x
    print(z.requires_grad)
