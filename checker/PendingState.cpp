//===--- PendingState.cpp - The dataflow fact: copies in flight ---------===//

#include "PendingState.h"
#include <algorithm>
#include <iterator>
#include <tuple>

namespace clang::tidy::cuda {
namespace {

template <class T> std::set<T> intersect(const std::set<T> &A,
                                         const std::set<T> &B) {
  std::set<T> R;
  std::set_intersection(A.begin(), A.end(), B.begin(), B.end(),
                        std::inserter(R, R.begin()));
  return R;
}

} // namespace

//===----------------------------------------------------------------------===//
// Literal
//===----------------------------------------------------------------------===//

bool Literal::operator<(const Literal &O) const {
  return std::tie(V, Field, Rel, Eq, C) <
         std::tie(O.V, O.Field, O.Rel, O.Eq, O.C);
}

bool Literal::operator==(const Literal &O) const {
  return sameSubject(O) && Rel == O.Rel && Eq == O.Eq && C == O.C;
}

bool Literal::contradicts(const Literal &O) const {
  if (!sameSubject(O))
    return false;
  if (Rel == 0 && O.Rel == 0) {
    if (Eq && O.Eq)
      return C != O.C;
    return Eq != O.Eq && C == O.C;
  }
  if (Rel != 0 && O.Rel != 0) // v >= a and v <= b: empty when b < a
    return Rel != O.Rel && (Rel > 0 ? O.C < C : C < O.C);
  const Literal &Point = Rel == 0 ? *this : O, &Bound = Rel == 0 ? O : *this;
  if (!Point.Eq)
    return false; // v != a leaves v >= b (v <= b) satisfiable
  return Bound.Rel > 0 ? Point.C < Bound.C : Point.C > Bound.C;
}

//===----------------------------------------------------------------------===//
// PathConditions, PendingCopy
//===----------------------------------------------------------------------===//

void PathConditions::add(const PathConditions &More) {
  Sets.insert(More.Sets.begin(), More.Sets.end());
  simplify();
}

void PathConditions::simplify() {
  for (auto It = Sets.begin(); It != Sets.end();) {
    bool Subsumed = llvm::any_of(Sets, [&](const Literals &Other) {
      return &Other != &*It && Other.size() < It->size() &&
             std::includes(It->begin(), It->end(), Other.begin(),
                           Other.end());
    });
    It = Subsumed ? Sets.erase(It) : std::next(It);
  }
  if (Sets.size() > MaxSets)
    Sets = {Literals{}};
}

void PathConditions::within(const Literals &Held) {
  if (Held.empty())
    return;
  std::set<Literals> Kept;
  for (Literals G : Sets) {
    bool Feasible = llvm::none_of(Held, [&](const Literal &H) {
      return llvm::any_of(G, [&](const Literal &L) { return L.contradicts(H); });
    });
    if (!Feasible)
      continue;
    G.insert(Held.begin(), Held.end());
    Kept.insert(std::move(G));
  }
  if (Kept.empty())
    return; // cannot happen: assume() dropped such conjunctions already
  Sets = std::move(Kept);
  simplify();
}

void PathConditions::forget(const VarDecl *V) {
  std::set<Literals> Kept;
  for (Literals G : Sets) {
    for (auto It = G.begin(); It != G.end();)
      It = It->V == V ? G.erase(It) : std::next(It);
    Kept.insert(std::move(G));
  }
  Sets = std::move(Kept);
  simplify();
}

bool PathConditions::assume(const Literal &L) {
  for (auto G = Sets.begin(); G != Sets.end();) {
    bool Infeasible = llvm::any_of(
        *G, [&](const Literal &Lit) { return Lit.contradicts(L); });
    G = Infeasible ? Sets.erase(G) : std::next(G);
  }
  return !Sets.empty();
}

bool PendingCopy::operator==(const PendingCopy &O) const {
  return Miss.Reason == O.Miss.Reason && Miss.Where == O.Miss.Where &&
         Conditions == O.Conditions && Site == O.Site &&
         LegacyCovered == O.LegacyCovered && AnyHolder == O.AnyHolder &&
         Holders == O.Holders && Target == O.Target &&
         IndicesHeld == O.IndicesHeld;
}

void PendingCopy::meetNames(const PendingCopy &O) {
  AnyHolder |= O.AnyHolder;
  Holders.insert(O.Holders.begin(), O.Holders.end());
  if (Target != O.Target)
    Target.reset();
  IndicesHeld &= O.IndicesHeld && Site == O.Site;
}

//===----------------------------------------------------------------------===//
// PendingState
//===----------------------------------------------------------------------===//

bool PendingState::operator==(const PendingState &O) const {
  return Reached == O.Reached && Pending == O.Pending && Events == O.Events &&
         Queried == O.Queried && Waits == O.Waits && Assumed == O.Assumed &&
         Producers == O.Producers && EventProducers == O.EventProducers &&
         QueriedProducers == O.QueriedProducers &&
         PointerValues == O.PointerValues && MayEqual == O.MayEqual;
}

void PendingState::join(const PendingState &O, NotePreference Prefer) {
  if (!O.Reached)
    return;
  if (!Reached) {
    *this = O;
    return;
  }
  // An event (or a stream's wait) covers a copy past the join when each
  // side either covers it or does not have it pending: on a side where the
  // copy was never issued the record has nothing to capture (a loop that
  // copies and records in its body, joined with the path that skipped it).
  // Met first, while each side's Pending is still its own.
  auto Kept = [](const std::set<unsigned> &Covered, const EventInfo *Other,
                 const std::map<unsigned, PendingCopy> &OtherPending) {
    std::set<unsigned> K;
    for (unsigned C : Covered)
      if ((Other && Other->Covered.count(C)) || !OtherPending.count(C))
        K.insert(C);
    return K;
  };
  auto Meet = [&](auto &M, const auto &OM) {
    for (auto It = M.begin(); It != M.end();) {
      auto Other = OM.find(It->first);
      const EventInfo *Theirs = Other == OM.end() ? nullptr : &Other->second;
      std::set<unsigned> Covered = Kept(It->second.Covered, Theirs, O.Pending);
      if (Theirs) {
        std::set<unsigned> More = Kept(Theirs->Covered, &It->second, Pending);
        Covered.insert(More.begin(), More.end());
        EventInfo &Mine = It->second;
        if (Theirs->Record != Mine.Record)
          Mine.LastLoop = nullptr; // which record is the latest varies
        // A record on one side against the seed's entry (no record of its
        // own) on the other: the record holds on some paths only. The
        // joined entry names that record and its stream, whichever side
        // is met first.
        Mine.SomePaths = Mine.SomePaths || Theirs->SomePaths ||
                         (!Mine.Record) != (!Theirs->Record);
        if (!Mine.Record && Theirs->Record) {
          Mine.Record = Theirs->Record;
          Mine.Stream = Theirs->Stream;
          Mine.Elements = Theirs->Elements;
        }
      } else if (Covered.empty()) {
        It = M.erase(It); // recorded on this side only, covering nothing
        continue;
      } else {
        It->second.SomePaths = true; // recorded on this side only
      }
      It->second.Covered = std::move(Covered);
      ++It;
    }
    for (const auto &[Key, E] : OM)
      if (!M.count(Key))
        if (std::set<unsigned> Covered = Kept(E.Covered, nullptr, Pending);
            !Covered.empty()) {
          EventInfo &Added = M[Key] = E;
          Added.Covered = std::move(Covered);
          Added.SomePaths = true;
        }
  };
  Meet(Events, O.Events);
  Meet(Waits, O.Waits);
  // A copy or producer live on one side only is live past the join only on
  // paths through that side, where that side's assumed literals hold: `if
  // (sync) cudaStreamSynchronize(s); ... if (sync) use(h[0]);` leaves the
  // copy pending under `!sync` alone.
  for (auto &[Id, P] : Pending)
    if (!O.Pending.count(Id))
      P.Conditions.within(Assumed);
  for (auto &[Key, P] : Producers)
    if (!O.Producers.count(Key))
      P.Conditions.within(Assumed);
  for (const auto &[Id, P] : O.Pending) {
    auto [It, New] = Pending.try_emplace(Id, P);
    if (New) {
      It->second.Conditions.within(O.Assumed);
      continue;
    }
    if (Prefer(P.Miss, It->second.Miss))
      It->second.Miss = P.Miss;
    It->second.Conditions.add(P.Conditions);
    It->second.LegacyCovered &= P.LegacyCovered;
    It->second.meetNames(P);
  }
  MayEqual.insert(O.MayEqual.begin(), O.MayEqual.end());
  for (auto It = PointerValues.begin(); It != PointerValues.end();) {
    auto Other = O.PointerValues.find(It->first);
    It = Other == O.PointerValues.end() || !(Other->second == It->second)
             ? PointerValues.erase(It)
             : std::next(It);
  }
  for (auto It = Queried.begin(); It != Queried.end();) {
    auto Other = O.Queried.find(It->first);
    if (Other == O.Queried.end()) {
      It = Queried.erase(It);
      continue;
    }
    It->second = intersect(It->second, Other->second);
    ++It;
  }
  Assumed = intersect(Assumed, O.Assumed);
  // Captured on the joined path: captured on each side, or not pending there.
  std::map<AccessPath, std::set<ProducerKey>> Captured;
  auto Holds = [](const PendingState &S, const AccessPath &E,
                  const ProducerKey &K) {
    auto It = S.EventProducers.find(E);
    return (It != S.EventProducers.end() && It->second.count(K)) ||
           !S.Producers.count(K);
  };
  for (const PendingState *Side : {static_cast<const PendingState *>(this), &O})
    for (const auto &[E, Keys] : Side->EventProducers)
      for (const ProducerKey &K : Keys)
        if (Holds(*this, E, K) && Holds(O, E, K))
          Captured[E].insert(K);
  EventProducers = std::move(Captured);
  // The same for what a query would find complete.
  auto Finds = [](const PendingState &S, const Expr *Q, const ProducerKey &K) {
    auto It = S.QueriedProducers.find(Q);
    return (It != S.QueriedProducers.end() && It->second.count(K)) ||
           !S.Producers.count(K);
  };
  std::map<const Expr *, std::set<ProducerKey>> Found;
  for (const PendingState *Side : {static_cast<const PendingState *>(this), &O})
    for (const auto &[Q, Keys] : Side->QueriedProducers)
      for (const ProducerKey &K : Keys)
        if (Finds(*this, Q, K) && Finds(O, Q, K))
          Found[Q].insert(K);
  QueriedProducers = std::move(Found);
  for (const auto &[Key, P] : O.Producers) {
    auto [It, New] = Producers.try_emplace(Key, P);
    if (New) {
      It->second.Conditions.within(O.Assumed);
      continue;
    }
    It->second.WaitedBy = intersect(It->second.WaitedBy, P.WaitedBy);
    It->second.LegacyJoined = It->second.LegacyJoined && P.LegacyJoined;
    It->second.Conditions.add(P.Conditions);
    // The later work in the file stands for both (an order on sites, so
    // that the note does not depend on the order paths are joined in).
    if (P.Site->getBeginLoc().getRawEncoding() >
        It->second.Site->getBeginLoc().getRawEncoding())
      It->second.Site = P.Site;
  }
}

void PendingState::forget(const VarDecl *V) {
  auto Drop = [&](Literals &Set) {
    for (auto It = Set.begin(); It != Set.end();)
      It = It->V == V ? Set.erase(It) : std::next(It);
  };
  Drop(Assumed);
  for (auto It = Producers.begin(); It != Producers.end();) {
    if (It->second.Var == V) {
      It = Producers.erase(It);
      continue;
    }
    It->second.Conditions.forget(V);
    ++It;
  }
  for (auto &[Id, P] : Pending)
    P.Conditions.forget(V);
}

bool PendingState::assume(const Literal &L) {
  size_t SameVar = 0;
  bool Implied = false;
  for (const Literal &A : Assumed) {
    if (A.contradicts(L))
      return false;
    if (A.sameSubject(L)) {
      ++SameVar;
      Implied |= A.Eq && A.Rel == 0;
    }
  }
  for (auto It = Pending.begin(); It != Pending.end();)
    It = It->second.Conditions.assume(L) ? std::next(It) : Pending.erase(It);
  for (auto It = Producers.begin(); It != Producers.end();)
    It = It->second.Conditions.assume(L) ? std::next(It)
                                         : Producers.erase(It);
  if (L.Eq && L.Rel == 0) {
    // v == C implies every other literal of v kept so far.
    for (auto It = Assumed.begin(); It != Assumed.end();)
      It = It->sameSubject(L) ? Assumed.erase(It) : std::next(It);
    Assumed.insert(L);
  } else if (!Implied && SameVar < MaxAssumedPerVar) {
    Assumed.insert(L);
  }
  return true;
}

size_t PendingState::size() const {
  auto Conds = [](const PathConditions &C) {
    size_t N = 0;
    for (const Literals &G : C.Sets)
      N += G.size();
    return N;
  };
  size_t N = Assumed.size();
  for (const auto &[Id, P] : Pending)
    N += 1 + Conds(P.Conditions) + P.Holders.size();
  N += PointerValues.size() + MayEqual.size();
  for (const auto &[Key, E] : Events)
    N += 1 + E.Covered.size();
  for (const auto &[Query, Ids] : Queried)
    N += 1 + Ids.size();
  for (const auto &[Stream, E] : Waits)
    N += 1 + E.Covered.size();
  for (const auto &[Key, P] : Producers)
    N += 1 + P.WaitedBy.size() + Conds(P.Conditions);
  for (const auto &[Query, Ps] : QueriedProducers)
    N += 1 + Ps.size();
  for (const auto &[Key, Ps] : EventProducers)
    N += 1 + Ps.size();
  return N;
}

} // namespace clang::tidy::cuda
