// null.js is an audit target with no filter at all: every key is "not a
// member". It measures what the protocol itself costs a key.
import { serve } from "./protocol.js";

serve({
  hello: "js/null",
  about: "no filter: add keeps nothing, test answers no; the protocol's own cost",
  can: [],
  rate: "standard",
  create: () => ({}),
  add: () => {},
  test: () => false,
});
