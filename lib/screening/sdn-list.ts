/**
 * The US Treasury's (OFAC) Specially Designated Nationals list in its published XML format
 * (SDN.XML, from sanctionslist.ofac.treas.gov): each `sdnEntry` is a listed party; its crypto
 * addresses are `idList/id` entries whose `idType` reads "Digital Currency Address - <CURRENCY>"
 * and whose `idNumber` is the address. Only EVM addresses (0x + 40 hex) are kept: the chains this
 * gateway serves. Pure, so the operator command, the tests and the server share it.
 */
import { XMLParser } from "fast-xml-parser";

export interface ListedAddress {
  /** Lower-case 0x address. */
  address: string;
  listedPartyId: string;
  listedPartyName: string;
  currency: string;
  programs: string;
}

export interface ParsedSanctionsList {
  source: "OFAC SDN";
  /** YYYY-MM-DD, from publshInformation/Publish_Date (MM/DD/YYYY in the file). */
  publishedOn: string;
  /** Listed parties in the file. */
  entries: number;
  /** EVM addresses of those parties (one per address, party and currency tag). */
  addresses: ListedAddress[];
  /** Digital currency addresses of other chains (BTC, XMR, TRX…), not kept. */
  otherChainAddresses: number;
}

export class SanctionsListFormatError extends Error {}

const digitalCurrencyPrefix = "Digital Currency Address - ";
const evmAddress = /^0x[0-9a-fA-F]{40}$/;

const asArray = <T>(value: T | T[] | undefined | null): T[] => (value == null ? [] : Array.isArray(value) ? value : [value]);
const text = (value: unknown): string => (value == null ? "" : String(value).trim());

function publishDate(raw: string): string {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
  if (us) return `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}`;
  if (/^\d{4}-\d{2}-\d{2}/.test(raw)) return raw.slice(0, 10);
  throw new SanctionsListFormatError(`Unreadable Publish_Date '${raw}'.`);
}

interface SdnId {
  idType?: unknown;
  idNumber?: unknown;
}
interface SdnEntry {
  uid?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  programList?: { program?: unknown };
  idList?: { id?: SdnId | SdnId[] };
}

export function parseSdnXml(xml: string): ParsedSanctionsList {
  const parser = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false, trimValues: true, processEntities: true });
  let document: { sdnList?: { publshInformation?: { Publish_Date?: unknown }; sdnEntry?: SdnEntry | SdnEntry[] } };
  try {
    document = parser.parse(xml);
  } catch (error) {
    throw new SanctionsListFormatError(`Not XML: ${(error as Error).message}`);
  }
  const list = document.sdnList;
  if (!list) throw new SanctionsListFormatError("No <sdnList> root: not the SDN.XML file (download SDN.XML from the Sanctions List Service).");
  const publishedOn = publishDate(text(list.publshInformation?.Publish_Date));
  const entries = asArray(list.sdnEntry);
  const seen = new Set<string>();
  const addresses: ListedAddress[] = [];
  let otherChainAddresses = 0;
  for (const entry of entries) {
    const listedPartyId = text(entry.uid);
    const listedPartyName = [text(entry.firstName), text(entry.lastName)].filter(Boolean).join(" ");
    const programs = asArray(entry.programList?.program).map(text).filter(Boolean).join(",");
    for (const id of asArray(entry.idList?.id)) {
      const idType = text(id.idType);
      if (!idType.startsWith(digitalCurrencyPrefix)) continue;
      const currency = idType.slice(digitalCurrencyPrefix.length).trim();
      const value = text(id.idNumber);
      if (!evmAddress.test(value)) {
        otherChainAddresses++;
        continue;
      }
      const address = value.toLowerCase();
      const key = `${address}|${listedPartyId}|${currency}`;
      if (seen.has(key)) continue;
      seen.add(key);
      addresses.push({ address, listedPartyId, listedPartyName, currency, programs });
    }
  }
  return { source: "OFAC SDN", publishedOn, entries: entries.length, addresses, otherChainAddresses };
}
