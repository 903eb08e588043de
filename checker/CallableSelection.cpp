//===--- CallableSelection.cpp - Which callables the check analyses -------===//
//
// One walk of the translation unit's own declarations records, per
// callable, the functions it calls itself and the callables nested in it.
// A 0-1 breadth-first search over the reversed edges then gives each
// callable its distance (in calls) to a modelled copy.
//
//===----------------------------------------------------------------------===//

#include "CallableSelection.h"
#include "CallableWalker.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>
#include <deque>
#include <limits>

namespace clang::tidy::cuda {
namespace {

struct Node {
  const FunctionDecl *FD = nullptr;
  /// Calls of the callable's own, in walk order: the function as called
  /// and the call's sequence number in the walk.
  std::vector<std::pair<const FunctionDecl *, unsigned>> Calls;
  /// Lambdas' call operators and local classes' member functions defined
  /// in the body.
  std::vector<unsigned> Nested;
};

class Walker : public CallableWalker<Walker> {
public:
  Walker(const SourceManager &SM, std::vector<Node> &Nodes,
         llvm::DenseMap<const FunctionDecl *, unsigned> &Index)
      : CallableWalker(SM), Nodes(Nodes), Index(Index) {}

  void enterCallable(const FunctionDecl *FD) {
    unsigned N = nodeOf(FD);
    if (!Stack.empty())
      Nodes[Stack.back()].Nested.push_back(N);
    Stack.push_back(N);
  }
  void leaveCallable() { Stack.pop_back(); }

  bool VisitCallExpr(CallExpr *CE) {
    if (Stack.empty())
      return true; // a namespace-scope initializer: no callable
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      Nodes[Stack.back()].Calls.emplace_back(Callee, Seq++);
    return true;
  }

private:
  /// The node of Def, created on first sight.
  unsigned nodeOf(const FunctionDecl *Def) {
    auto [It, New] = Index.try_emplace(Def, Nodes.size());
    if (New) {
      Nodes.emplace_back();
      Nodes.back().FD = Def;
    }
    return It->second;
  }

  std::vector<Node> &Nodes;
  llvm::DenseMap<const FunctionDecl *, unsigned> &Index;
  std::vector<unsigned> Stack;
  unsigned Seq = 0;
};

/// The function's definition with a body (any redeclaration's), or null.
const FunctionDecl *bodyOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  return FD->hasBody(Def) ? Def : nullptr;
}

} // namespace

std::vector<const FunctionDecl *>
selectCallables(ASTContext &Ctx, unsigned Levels,
                llvm::function_ref<CalleeRole(const FunctionDecl *)> Role) {
  std::vector<Node> Nodes;
  llvm::DenseMap<const FunctionDecl *, unsigned> Index;
  Walker W(Ctx.getSourceManager(), Nodes, Index);
  W.TraverseAST(Ctx);

  // Each call resolved once: its callee's role, and the node of its
  // callee's definition when the walk reached it (-1 otherwise).
  llvm::DenseMap<const FunctionDecl *, CalleeRole> Roles;
  struct Resolved {
    unsigned Seq;
    CalleeRole Role;
    int Node;
  };
  std::vector<std::vector<Resolved>> Calls(Nodes.size());
  for (unsigned N = 0; N < Nodes.size(); ++N)
    for (auto [Callee, Seq] : Nodes[N].Calls) {
      auto [It, New] = Roles.try_emplace(Callee->getCanonicalDecl());
      if (New)
        It->second = Role(Callee);
      int Node = -1;
      if (It->second == CalleeRole::Other)
        if (const FunctionDecl *Def = bodyOf(Callee))
          if (auto I = Index.find(Def); I != Index.end())
            Node = static_cast<int>(I->second);
      Calls[N].push_back({Seq, It->second, Node});
    }

  // Distance of each node to a modelled copy: 0 when its body (nested
  // callables included) makes one, 1 + the callee's through a call.
  constexpr unsigned Far = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> Dist(Nodes.size(), Far);
  std::vector<std::vector<std::pair<unsigned, unsigned>>> Callers(
      Nodes.size()); // (caller, weight)
  std::deque<unsigned> Queue;
  for (unsigned N = 0; N < Nodes.size(); ++N) {
    for (unsigned M : Nodes[N].Nested)
      Callers[M].emplace_back(N, 0);
    for (const Resolved &C : Calls[N]) {
      if (C.Role != CalleeRole::Other) {
        if (Dist[N] != 0)
          Queue.push_back(N);
        Dist[N] = 0;
      } else if (C.Node >= 0) {
        Callers[C.Node].emplace_back(N, 1);
      }
    }
  }
  while (!Queue.empty()) {
    unsigned N = Queue.front();
    Queue.pop_front();
    for (auto [Caller, Weight] : Callers[N]) {
      unsigned D = Dist[N] + Weight;
      if (D >= Levels || D >= Dist[Caller])
        continue;
      Dist[Caller] = D;
      if (Weight == 0)
        Queue.push_front(Caller);
      else
        Queue.push_back(Caller);
    }
  }

  // The project's own callables with a selecting call of their own
  // (libraries' are walked for their calls, never reported in).
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::pair<unsigned, const FunctionDecl *>> Selected;
  for (size_t N = 0; N < Nodes.size(); ++N) {
    if (Nodes[N].FD->isTemplated() ||
        SM.isInSystemHeader(Nodes[N].FD->getLocation()))
      continue;
    for (const Resolved &C : Calls[N])
      if (C.Role != CalleeRole::Other ||
          (C.Node >= 0 && Dist[C.Node] < Levels)) {
        Selected.emplace_back(C.Seq, Nodes[N].FD);
        break;
      }
  }
  llvm::sort(Selected, [](const auto &A, const auto &B) {
    return A.first < B.first;
  });
  std::vector<const FunctionDecl *> Out;
  for (auto &[Seq, FD] : Selected)
    Out.push_back(FD);
  return Out;
}

} // namespace clang::tidy::cuda
