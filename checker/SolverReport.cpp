//===--- SolverReport.cpp - Findings of the data flow -------------------===//
//
// The Solver's findings: a host access of a buffer with copies into it in
// flight (report: one per access site; in a summary run, one per access
// site and seed), and a device-to-host copy reading a buffer that device
// work on an unordered stream may still write (checkProducers).
//
//===----------------------------------------------------------------------===//

#include "Solver.h"
#include "ElementIndices.h"
#include "ExprUtils.h"
#include "HelperSummaries.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda {

/// In a summary run: a device-to-host copy of a parameter's buffer (or a
/// lambda's captured variable's, or a member's or global's the caller
/// names too) while the caller's seed producer is pending on it, on a
/// stream parameter (a captured stream variable, a member or global the
/// caller names too) or the legacy default stream.
void Solver::recordConsumption(const PendingState &St, const Effect &Ev) {
  const StreamRef &On = *Ev.OnStream;
  HelperSummary::Consumption C;
  C.Blocking = Ev.BlockingCopy;
  bool ParamOrCapture = false;
  if (On.K == StreamRef::Named && On.Path.steps().empty() &&
      On.Path.rootKind() == AccessPath::RootKind::Decl) {
    const auto *SP = dyn_cast_or_null<ParmVarDecl>(On.Path.rootDecl());
    C.CapturedStream = capturedVariable(F.FD, On.Path.rootDecl());
    ParamOrCapture =
        C.CapturedStream || (SP && SP->getDeclContext() == F.FD);
    C.OnStreamParam = ParamOrCapture && !C.CapturedStream;
    C.StreamParam = C.OnStreamParam ? SP->getFunctionScopeIndex() : 0;
  }
  if (!ParamOrCapture) {
    if (On.K == StreamRef::Named && namedByCaller(On.Path, F))
      C.NamedStream = On; // a member or global the caller names too
    else if (On.K != StreamRef::Legacy)
      return; // a stream the caller cannot name
  }
  for (const auto &[Key, P] : St.Producers) {
    const auto *Param = dyn_cast_or_null<ParmVarDecl>(P.Var);
    if (Param && Param->getDeclContext() != F.FD)
      Param = nullptr;
    C.CapturedBuffer = Param ? nullptr : capturedVariable(F.FD, P.Var);
    if (!namesPartOf(Ev, Key) || P.Stream.K != StreamRef::Unknown)
      continue;
    // A member or global the caller names too (its producer seed).
    const CallableEffects::ProducerSeed *Named = nullptr;
    for (const CallableEffects::ProducerSeed &Sd : Effects.ProducerSeeds)
      if (Sd.Named && Sd.Region == Key.first)
        Named = &Sd;
    if ((!Param && !C.CapturedBuffer && !Named) ||
        (C.CapturedStream && !C.CapturedBuffer))
      continue;
    C.BufferParam = Param ? Param->getFunctionScopeIndex() : 0;
    C.NamedBuffer.reset();
    if (!Param && !C.CapturedBuffer) {
      C.NamedBuffer = Named->Named;
      C.NamedBufferName = Named->Name;
    }
    auto It = llvm::lower_bound(Consumed, C);
    if (It == Consumed.end() || C < *It)
      Consumed.insert(It, C);
  }
}

/// Whether the copy Ev reads what the producer of Key wrote: the same
/// region, or a part (`d + offset`) of the whole buffer the producer wrote
/// (`d`) where every work of the callable writing that buffer is on the
/// producer's stream, so that the buffer is not divided among streams (a
/// chunked pipeline's `d + i * chunk` on `s[i]`): which part each work
/// writes is not known. A summary run's seed (the caller's work, on a
/// stream the helper cannot name) counts where the helper writes no part
/// of the buffer itself.
bool Solver::namesPartOf(const Effect &Ev, const ProducerKey &Key) const {
  if (Key.first == Ev.Buffer)
    return !Ev.Buffer.empty();
  if (Ev.WithinBuffer.empty() || Key.first != Ev.WithinBuffer)
    return false;
  auto It = Effects.ProducerStreams.find(Ev.WithinBuffer);
  if (Key.second.first == StreamRef::Unknown)
    return It == Effects.ProducerStreams.end();
  return It != Effects.ProducerStreams.end() && It->second.size() == 1 &&
         *It->second.begin() == Key.second;
}

void Solver::checkProducers(const PendingState &St, const Effect &Ev) {
  if (R.SummaryMode) {
    recordConsumption(St, Ev);
    return;
  }
  if (ProducerFindingAt.count(Ev.Anchor))
    return;
  const StreamRef &On = *Ev.OnStream;
  const PendingProducer *Racing = nullptr;
  StreamClaim Claim;
  for (const auto &[Key, P] : St.Producers) {
    // Legacy-stream work after a handed stream's work joins it only if that
    // stream is blocking: for a copy on the legacy default stream, what the
    // claim's note already says ("... or a blocking stream").
    bool Joined = P.LegacyJoined && isBlockingStream(On) &&
                  !(P.Stream.Supplied && On.K == StreamRef::Legacy);
    if (!namesPartOf(Ev, Key) || P.WaitedBy.count(On.identity()) || Joined)
      continue;
    // The legacy default stream waits for blocking streams, and a stream
    // that waited for the producer may be one.
    if (On.K == StreamRef::Legacy && !P.WaitedBy.empty())
      continue;
    StreamClaim C = claimUnordered(P.Stream, On, R.options().CallerStreams);
    if (C.K == ClaimKind::None)
      continue;
    // Of several, a certain claim first, then the latest in the file (an
    // order on sites).
    bool Certain = C.K == ClaimKind::Certain,
         WasCertain = Racing && Claim.K == ClaimKind::Certain;
    if (!Racing || (Certain && !WasCertain) ||
        (Certain == WasCertain &&
         Racing->Site->getBeginLoc().getRawEncoding() <
             P.Site->getBeginLoc().getRawEncoding())) {
      Racing = &P;
      Claim = C;
    }
  }
  if (!Racing)
    return;
  ProducerFindingAt.insert(Ev.Anchor);
  Finding Fd;
  Fd.Access = cast<Expr>(Ev.Anchor);
  Fd.BufferName = Ev.Name ? spelling(Ev.Name, Ctx) : *Ev.Spelled;
  Fd.Producer = Racing->Site;
  Fd.ProducerStream = Racing->Stream;
  Fd.CopyStream = On;
  Fd.BlockingCopy = Ev.BlockingCopy;
  Fd.Claim = Claim.K;
  Fd.SubjectIsProducer = Claim.Subject == &Racing->Stream;
  Findings.push_back(std::move(Fd));
}

bool Solver::otherBuffer(const PendingCopy &P, const AccessPath &Access,
                         const Expr *At) const {
  if (!mayHold(P, followedRoot(Access)))
    return true; // through a pointer that holds another buffer here
  // `bufs[cur]` after a copy into `bufs[1 - cur]` (or through locals that
  // stand for them: `src` and `dst`).
  auto Ranges = [&](const VarDecl *V) { return F.valueRange(V, At); };
  return P.IndicesHeld &&
         differentElements(Effects.Copies[P.Site]->elementPath(),
                           At ? F.expandAliases(Access, At) : Access, Ctx,
                           Ranges);
}

void Solver::report(const PendingState &St, const std::string &Buffer,
                    AccessKind K, const Expr *Loc, const Expr *Name,
                    const NamedDecl *Callee, const Stmt *CalleeAccess,
                    const StreamRef *UseStream, const std::string *NameStr,
                    std::optional<long long> Element,
                    const std::optional<ByteRange> &Bytes,
                    const AccessPath *NamePath) {
  if (FindingAt.count(Loc) && !R.SummaryMode)
    return;
  // The access's path, built where a followed pointer or a held index may
  // make it name another buffer (most callables have neither).
  std::optional<AccessPath> Path;
  for (const auto &[Id, P] : St.Pending) {
    const CopySite *C = Effects.Copies[P.Site];
    if (C->Buffer != Buffer)
      continue;
    if (!F.FollowedPointers.empty() || P.IndicesHeld) {
      if (!Path)
        Path = NamePath ? *NamePath
                        : (Name ? AccessPath::of(Name) : AccessPath());
      if (otherBuffer(P, *Path, Loc))
        continue;
    }
    if (Element && C->Element && *Element != *C->Element)
      continue; // another element of an array of buffers
    if (disjoint(Bytes, C->Bytes))
      continue; // another slice of the buffer (ByteRegions.h)
    if (UseStream && (C->Stream.sameStream(*UseStream) ||
                      covers(*UseStream, C->Stream)))
      continue; // ordered after the copy: the same stream, or the legacy
                // default stream after a blocking one
    if (UseStream) {
      // A stream that waited (cudaStreamWaitEvent) for an event recorded
      // after the copy runs its later work after it (runtime/cases/
      // h2d_other_stream_after_wait).
      auto Wait = St.Waits.find(UseStream->identity());
      if (Wait != St.Waits.end() && Wait->second.Covered.count(Id))
        continue;
    }
    Finding F;
    F.Access = Loc;
    F.Kind = K;
    F.Callee = Callee;
    F.CalleeAccess = CalleeAccess;
    F.BufferName = Name ? spelling(Name, Ctx) : *NameStr;
    F.Copy = C;
    F.Miss = P.Miss;
    F.LaterIteration =
        C->Call && Ctx.getSourceManager().isBeforeInTranslationUnit(
                       Loc->getBeginLoc(), C->Call->getBeginLoc());
    if (R.SummaryMode) {
      if (SeedFindings.insert({Loc, C}).second) {
        for (const auto &[Other, OP] : St.Pending)
          if (const SummarySeed *Sd = Effects.Copies[OP.Site]->Seed;
              Sd && Sd->isEventSeed())
            F.PendingEventSeeds.push_back(OP.Site);
        Findings.push_back(std::move(F));
      }
      continue;
    }
    FindingAt[Loc] = Findings.size();
    Findings.push_back(std::move(F));
    return;
  }
}

} // namespace clang::tidy::cuda
