"""Introduction to PyTorch (YouTube series), "Introduction to PyTorch Tensors": creating
tensors, seeds, dtypes, arithmetic with scalars and tensors, broadcasting (and its
errors), math functions, comparisons, reductions, in-place ops, out=, copying with
clone (and autograd), squeeze/unsqueeze/reshape, the numpy bridge.

Source: https://pytorch.org/tutorials/beginner/introyt/tensors_deeper_tutorial.html
        (pytorch/tutorials, beginner_source/introyt/tensors_deeper_tutorial.py)
Adapted: the uninitialised torch.empty prints, the svd and the GPU part are left out;
smaller shapes where the tutorial's only show sizes.
"""
import math

import numpy as np
import torch

zeros = torch.zeros(2, 3)
print(zeros)
ones = torch.ones(2, 3)
print(ones)
torch.manual_seed(1729)
random = torch.rand(2, 3)
print(random)

torch.manual_seed(1729)
random1 = torch.rand(2, 3)
random2 = torch.rand(2, 3)
torch.manual_seed(1729)
random3 = torch.rand(2, 3)
print(torch.equal(random1, random3), torch.equal(random1, random2))

some_constants = torch.tensor([[3.1415926, 2.71828], [1.61803, 0.0072897]])
print(some_constants)
some_integers = torch.tensor((2, 3, 5, 7, 11, 13, 17, 19))
print(some_integers)
more_integers = torch.tensor(((2, 4, 6), [3, 6, 9]))
print(more_integers)

a = torch.ones((2, 3), dtype=torch.int16)
print(a)
b = torch.rand((2, 3), dtype=torch.float64) * 20.
print(b)
c = b.to(torch.int32)
print(c)

ones = torch.zeros(2, 2) + 1
twos = torch.ones(2, 2) * 2
threes = (torch.ones(2, 2) * 7 - 1) / 2
fours = twos ** 2
sqrt2s = twos ** 0.5
print(ones, twos, threes, fours, sqrt2s)
powers2 = twos ** torch.tensor([[1, 2], [3, 4]])
print(powers2)
fives = ones + fours
print(fives)
dozens = threes * fours
print(dozens)

a = torch.rand(2, 3)
b = torch.rand(3, 2)
try:
    print(a * b)
except RuntimeError as error:
    print("RuntimeError:", error)

rand = torch.rand(2, 4)
doubled = rand * (torch.ones(1, 4) * 2)
print(rand)
print(doubled)

a = torch.ones(4, 3, 2)
b = a * torch.rand(3, 2)  # 3rd & 2nd dims identical to a, dim 1 absent
c = a * torch.rand(3, 1)  # 3rd dim = 1, 2nd dim identical to a
d = a * torch.rand(1, 2)  # 3rd dim identical to a, 2nd dim = 1
print(b.shape, c[1], d[2])
for other in (torch.rand(4, 3), torch.rand(2, 3), torch.rand((0, ))):
    try:
        a * other
    except RuntimeError as error:
        print("RuntimeError:", error)

a = torch.rand(2, 4) * 2 - 1
print('Common functions:')
print(torch.abs(a))
print(torch.ceil(a))
print(torch.floor(a))
print(torch.clamp(a, -0.5, 0.5))

angles = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
sines = torch.sin(angles)
inverses = torch.asin(sines)
print('\nSine and arcsine:')
print(angles)
print(sines)
print(inverses)

print('\nBitwise XOR:')
b = torch.tensor([1, 5, 11])
c = torch.tensor([2, 7, 10])
print(torch.bitwise_xor(b, c))

print('\nBroadcasted, element-wise equality comparison:')
d = torch.tensor([[1., 2.], [3., 4.]])
e = torch.ones(1, 2)  # many comparison ops support broadcasting!
print(torch.eq(d, e))  # returns a tensor of type bool

print('\nReduction ops:')
print(torch.max(d))  # returns a single-element tensor
print(torch.max(d).item())  # extracts the value from the returned tensor
print(torch.mean(d))  # average
print(torch.std(d))  # standard deviation
print(torch.prod(d))  # product of all numbers
print(torch.unique(torch.tensor([1, 2, 1, 2, 1, 2])))  # filter unique elements

v1 = torch.tensor([1., 0., 0.])  # x unit vector
v2 = torch.tensor([0., 1., 0.])  # y unit vector
m1 = torch.rand(2, 2)  # random matrix
m2 = torch.tensor([[3., 0.], [0., 3.]])  # three times identity matrix
print('\nVectors & Matrices:')
print(torch.linalg.cross(v2, v1))  # negative of z unit vector (v1 x v2 == -v2 x v1)
print(m1)
m3 = torch.linalg.matmul(m1, m2)
print(m3)  # 3 times m1

a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print('a:')
print(a)
print(torch.sin(a))  # this operation creates a new tensor in memory
print(a)  # a has not changed
b = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print('\nb:')
print(b)
print(torch.sin_(b))  # note the underscore
print(b)  # b has changed

a = torch.ones(2, 2)
b = torch.rand(2, 2)
print('Before:')
print(a)
print(b)
print('\nAfter adding:')
print(a.add_(b))
print(a)
print(b)
print('\nAfter multiplying')
print(b.mul_(b))
print(b)

a = torch.rand(2, 2)
b = torch.rand(2, 2)
c = torch.zeros(2, 2)
old_id = id(c)
print(c)
d = torch.matmul(a, b, out=c)
print(c)  # contents of c have changed
assert c is d  # test c & d are same object, not just containing equal values
assert id(c) == old_id  # make sure that our new c is the same object as the old one

a = torch.ones(2, 2)
b = a
a[0][1] = 561  # we change a...
print(b)  # ...and b is also altered

a = torch.ones(2, 2)
b = a.clone()
assert b is not a  # different objects in memory...
print(torch.eq(a, b))  # ...but still with the same contents!
a[0][1] = 561  # a changes...
print(b)  # ...but b is still all ones

a = torch.rand(2, 2, requires_grad=True)  # turn on autograd
print(a)
b = a.clone()
print(b)
c = a.detach().clone()
print(c)
print(a)

a = torch.rand(3, 4, 4)
b = a.unsqueeze(0)
print(a.shape)
print(b.shape)
c = torch.rand(1, 1, 1, 1, 1)
print(c)
a = torch.rand(1, 20)
print(a.shape)
b = a.squeeze(0)
print(b.shape)
c = torch.rand(2, 2)
print(c.shape)
d = c.squeeze(0)
print(d.shape)
a = torch.ones(4, 3, 2)
c = a * torch.rand(3, 1)  # 3rd dim = 1, 2nd dim identical to a
print(c)
a = torch.ones(4, 3, 2)
b = torch.rand(3)  # trying to multiply a * b will give a runtime error
c = b.unsqueeze(1)  # change to a 2-dimensional tensor, adding new dim at the end
print(c.shape)
print(a * c)  # broadcasting works again!
batch_me = torch.rand(3, 4, 4)
print(batch_me.shape)
batch_me.unsqueeze_(0)
print(batch_me.shape)
output3d = torch.rand(6, 2, 2)
print(output3d.shape)
input1d = output3d.reshape(6 * 2 * 2)
print(input1d.shape)
print(torch.reshape(output3d, (6 * 2 * 2,)).shape)

numpy_array = np.ones((2, 3))
print(numpy_array)
pytorch_tensor = torch.from_numpy(numpy_array)
print(pytorch_tensor)
pytorch_rand = torch.rand(2, 3)
print(pytorch_rand)
numpy_rand = pytorch_rand.numpy()
print(numpy_rand)
numpy_array[1, 1] = 23
print(pytorch_tensor)
pytorch_rand[1, 1] = 17
print(numpy_rand)
