-- A German-style directory cache-coherence protocol without data, written
-- for orbit's tests: clients request shared or exclusive access over
-- channel 1, the home node invalidates sharers over channel 2 and grants
-- over channel 2, clients acknowledge invalidations over channel 3.

const
  NODES: 3;

type
  node: scalarset(NODES);
  cache_state: enum {invalid, shared, exclusive};
  message: enum {empty, req_shared, req_exclusive, invalidate, inv_ack, grant_shared, grant_exclusive};
  channel: record cmd: message; end;

var
  cache: array [node] of cache_state;
  chan1: array [node] of channel;
  chan2: array [node] of channel;
  chan3: array [node] of channel;
  sharers: array [node] of boolean;
  inv_list: array [node] of boolean;
  exclusive_granted: boolean;
  cur_cmd: message;
  cur_client: node;

startstate
begin
  for i: node do
    cache[i] := invalid;
    chan1[i].cmd := empty;
    chan2[i].cmd := empty;
    chan3[i].cmd := empty;
    sharers[i] := false;
    inv_list[i] := false;
  endfor;
  exclusive_granted := false;
  cur_cmd := empty;
  undefine cur_client;
end;

ruleset i: node do
  rule "send shared request"
    cache[i] = invalid & chan1[i].cmd = empty ==>
  begin
    chan1[i].cmd := req_shared;
  end;

  rule "send exclusive request"
    (cache[i] = invalid | cache[i] = shared) & chan1[i].cmd = empty ==>
  begin
    chan1[i].cmd := req_exclusive;
  end;

  rule "home receives a request"
    cur_cmd = empty & chan1[i].cmd != empty ==>
  begin
    cur_cmd := chan1[i].cmd;
    chan1[i].cmd := empty;
    cur_client := i;
    for j: node do
      inv_list[j] := sharers[j];
    endfor;
  end;

  rule "home sends an invalidation"
    chan2[i].cmd = empty & inv_list[i] &
    (cur_cmd = req_exclusive | (cur_cmd = req_shared & exclusive_granted)) ==>
  begin
    chan2[i].cmd := invalidate;
    inv_list[i] := false;
  end;

  rule "home receives an acknowledgement"
    cur_cmd != empty & chan3[i].cmd = inv_ack ==>
  begin
    sharers[i] := false;
    exclusive_granted := false;
    chan3[i].cmd := empty;
  end;

  rule "client invalidates"
    chan2[i].cmd = invalidate & chan3[i].cmd = empty ==>
  begin
    chan2[i].cmd := empty;
    chan3[i].cmd := inv_ack;
    cache[i] := invalid;
  end;

  rule "client receives a grant"
    chan2[i].cmd = grant_shared | chan2[i].cmd = grant_exclusive ==>
  begin
    cache[i] := (chan2[i].cmd = grant_shared) ? shared : exclusive;
    chan2[i].cmd := empty;
  end;
endruleset;

rule "home grants shared access"
  cur_cmd = req_shared & !exclusive_granted & chan2[cur_client].cmd = empty ==>
begin
  sharers[cur_client] := true;
  chan2[cur_client].cmd := grant_shared;
  cur_cmd := empty;
  undefine cur_client;
end;

rule "home grants exclusive access"
  cur_cmd = req_exclusive & chan2[cur_client].cmd = empty &
  (forall j: node do !sharers[j] endforall) ==>
begin
  sharers[cur_client] := true;
  exclusive_granted := true;
  chan2[cur_client].cmd := grant_exclusive;
  cur_cmd := empty;
  undefine cur_client;
end;

invariant "one exclusive copy, and never beside a shared one"
  forall i: node do forall j: node do
    i != j -> (cache[i] = exclusive -> cache[j] = invalid)
  endforall endforall;

invariant "an exclusive copy was granted"
  forall i: node do cache[i] = exclusive -> exclusive_granted endforall;
