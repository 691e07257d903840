-- Processes that send requests over an unordered network to a server,
-- written for orbit's tests. The network is a CMurphi multiset: messages
-- have no order and identical messages may be in flight together. Rumur
-- rejects multisets; `msg_net_counts.m` is the same system with the
-- network kept as a count of each message, so both models must reach as
-- many states, with and without symmetry (`tests/it/murphi.rs`).

const
  N: 3;   -- processes
  K: 3;   -- messages the network holds
type
  proc: scalarset(N);
  kind: enum {req, ack};
  msg: record
    src: proc;
    kind: kind;
  end;
  phase: enum {idle, waiting, busy};
var
  net: multiset [K] of msg;
  state: array [proc] of phase;

startstate
begin
  clear net;
  for p: proc do
    state[p] := idle;
  endfor;
end;

ruleset p: proc do
  -- Ask (again) while not busy, if the network has room.
  rule "request"
    state[p] != busy & multisetcount(i: net, true) < K
  ==>
  var m: msg;
  begin
    m.src := p;
    m.kind := req;
    multisetadd(m, net);
    state[p] := waiting;
  end;

  choose i: net do
    rule "receive" net[i].kind = ack & net[i].src = p ==>
    begin
      multisetremove(i, net);
      state[p] := busy;
    end;
  endchoose;

  rule "release" state[p] = busy ==>
  begin
    state[p] := idle;
  end;

  -- An idle process drops the answers it no longer needs.
  rule "flush"
    state[p] = idle & multisetcount(i: net, net[i].src = p & net[i].kind = ack) > 0
  ==>
  begin
    multisetremovepred(i: net, net[i].src = p & net[i].kind = ack);
  end;
endruleset;

-- The server answers any request.
choose i: net do
  rule "serve" net[i].kind = req ==>
  var m: msg;
  begin
    m.src := net[i].src;
    m.kind := ack;
    multisetremove(i, net);
    multisetadd(m, net);
  end;
endchoose;

invariant "the network never overflows"
  multisetcount(i: net, true) <= K;

invariant "a waiting process has a message in flight"
  forall p: proc do
    state[p] = waiting -> multisetcount(i: net, net[i].src = p) > 0
  endforall;
