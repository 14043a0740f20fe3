import "server-only";
import type { Db } from "@/lib/db/types";
import type { SanctionsListLoad } from "@/lib/db/schema";
import { replaceSanctionsList } from "./queries";
import { parseSdnXml, type ParsedSanctionsList } from "./sdn-list";

/**
 * Loads the SDN list from the SDN.XML file an operator downloaded (npm run admin -- screening:load
 * <file>): its EVM addresses replace the previous list in one transaction, so screening never sees
 * half a list. Throws SanctionsListFormatError on a file that is not SDN.XML.
 */
export async function loadSanctionsList(db: Db, xml: string, now = new Date()): Promise<{ load: SanctionsListLoad; list: ParsedSanctionsList }> {
  const list = parseSdnXml(xml);
  const load = await replaceSanctionsList(db, list, now);
  return { load, list };
}
