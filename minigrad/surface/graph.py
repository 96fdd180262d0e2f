"""torch.autograd.graph: the names PyTorch keeps there.

    Node                          what every node of the backward graph has   here
    AccumulateGrad                the node of a leaf                ../core/graph.py
    saved_tensors_hooks,          pack and unpack what ops save     ../core/hooks.py
    disable_saved_tensors_hooks
    save_on_cpu                   saved tensors kept in host memory  save_on_cpu.py
    register_multi_grad_hook      one hook over several gradients  multi_grad_hook.py
    allow_mutation_on_saved_tensors   saved tensors cloned before a change  allow_mutation.py
    increment_version             count an in-place change made behind autograd's back
"""
import abc

from ..core import graph
from ..core.graph import AccumulateGrad
from ..core.hooks import disable_saved_tensors_hooks, saved_tensors_hooks
from ..core.tensor import TensorBase
from .allow_mutation import allow_mutation_on_saved_tensors
from .multi_grad_hook import register_multi_grad_hook
from .save_on_cpu import save_on_cpu

__all__ = ["Node", "AccumulateGrad", "saved_tensors_hooks", "disable_saved_tensors_hooks",
           "save_on_cpu", "register_multi_grad_hook", "allow_mutation_on_saved_tensors",
           "increment_version"]


class Node(abc.ABC):
    """What every node of the backward graph has, as PyTorch's abstract class: a name,
    its next_functions, a metadata dict, hooks.  `isinstance(y.grad_fn, Node)` is True for
    minigrad's nodes (core/graph.py) though they do not derive from it, as PyTorch's
    C++ nodes do not."""

    @abc.abstractmethod
    def name(self):
        """The node's name, e.g. 'MulBackward0'."""

    @property
    @abc.abstractmethod
    def next_functions(self):
        """((node, output_nr), ...): where the node sends each input's gradient."""

    @property
    @abc.abstractmethod
    def metadata(self):
        """A dict for your own notes about the node."""

    @abc.abstractmethod
    def register_hook(self, fn):
        """`fn(grad_inputs, grad_outputs)` runs after the node."""

    @abc.abstractmethod
    def register_prehook(self, fn):
        """`fn(grad_outputs)` runs before the node."""

    @classmethod
    def __subclasshook__(cls, subclass):
        if cls is Node and issubclass(subclass, graph.Node):
            return True
        return NotImplemented


def increment_version(tensor):
    """Bump the version of a tensor (or of each tensor of a list) whose data was changed
    in place where autograd could not see it (through numpy, say), so that a saved copy
    of it is refused by backward.  Inference tensors are left alone (PyTorch's have no
    version counter)."""
    for each in (tensor,) if isinstance(tensor, TensorBase) else tensor:
        if not each._inference:
            each._version_counter.value += 1
