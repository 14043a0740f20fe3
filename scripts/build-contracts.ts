import { writeFileSync } from "node:fs";
import path from "node:path";
import { CONTRACT_ARTIFACTS_PATH, compileContracts } from "@/lib/chains/compile-contracts";

const rootDir = process.cwd();
const target = path.join(rootDir, CONTRACT_ARTIFACTS_PATH);
writeFileSync(target, compileContracts(rootDir));
console.log(`Wrote ${CONTRACT_ARTIFACTS_PATH}`);
