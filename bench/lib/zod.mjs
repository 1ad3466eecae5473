/**
 * The zod that toolrx itself imports: the repository root's. bench/node_modules has a copy of
 * its own (the peer frameworks ask for one), and a tool built on that copy would run toolrx
 * and the limit on two zods at once, which no user does; toolrx's build resolves `zod` from the
 * root, so this file does too, by path.
 */
export { z } from "../../node_modules/zod/index.js";
