"""In-place changes through views update the base's history (CopySlices)."""
import pytest

import minigrad as torch


def test_inplace_through_a_view_changes_the_base_gradient():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y[1:]
    v.mul_(3)
    assert y.tolist() == [2.0, 12.0, 18.0]
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert repr(v).endswith("grad_fn=<AsStridedBackward0>)")
    assert y._version == v._version == 1
    (y * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [2.0, 60.0, 600.0]


def test_setitem_through_a_view_and_with_a_tensor_that_requires_grad():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    w = torch.tensor(5.0, requires_grad=True)
    y = (x * 1).view(2, 2)
    row = y[1]
    row[0] = w * 2
    assert y.tolist() == [[1.0, 2.0], [10.0, 4.0]]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 0.0, 1.0]
    assert w.grad.item() == 2.0


def test_view_of_a_leaf_is_refused():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="view of a leaf Variable"):
        x[0].add_(1)


def test_under_no_grad_a_view_writes_through_to_its_base():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        x[0].add_(10)
    assert x.tolist() == [11.0, 2.0] and x._version == 1
