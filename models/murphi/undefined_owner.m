-- CMurphi's reading of undefined values (`--dialect cmurphi`): an
-- undefined scalarset or union value compares unequal to every element
-- and equal to another undefined value; Rumur (and orbit's default
-- dialect) stop at the first such read.
const
  N: 3;
type
  Node: scalarset(N);
  Home: enum { HomeNode };
  Agent: union { Home, Node };
var
  owner: Node;          -- undefined while nobody owns the line
  last: Agent;          -- undefined until somebody released it
  grants: 0..3;

procedure Release(n: Node);
begin
  last := n;
  undefine owner;
end;

startstate
  undefine owner;
  undefine last;
  grants := 0;
endstartstate;

ruleset n: Node do
  rule "take" owner != n & grants < 3 ==>
    owner := n;
    grants := grants + 1;
  endrule;

  rule "release" owner = n ==>
    Release(n);
  endrule;

  rule "hand back to home" last = n & owner != n ==>
    last := HomeNode;
  endrule;
endruleset;

rule "reset" grants = 3 & (owner = last | last = HomeNode) ==>
  grants := 0;
  undefine last;
endrule;

invariant "an owner is a node"
  owner = owner;
