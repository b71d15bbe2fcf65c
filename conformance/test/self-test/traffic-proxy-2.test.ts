/** Broken servers through the validating proxy (traffic-proxy-suite.ts), part 2 of 2. */
import { trafficProxySuite } from "./traffic-proxy-suite.ts";

trafficProxySuite(2, 2);
