import { bytes, compactNumber, seconds } from "@/components/charts/series-data";

/** One chart of the node Metrics tab: a PromQL query over the node's own series. */
export interface MetricPanel {
  id: string;
  title: string;
  query: string;
  format: (n: number) => string;
  /** Series label from its labels; the panel title when it has none of interest. */
  legend: (metric: Record<string, string>) => string;
}

const byChannel = (fallback: string) => (m: Record<string, string>) => m.channel ?? fallback;
const percent = (n: number): string => `${Math.round(n * 1000) / 10}%`;
const p95 = (histogram: string): string => `histogram_quantile(0.95, sum by (le) (rate(${histogram}_bucket[5m])))`;

const PEER: MetricPanel[] = [
  {
    id: "height",
    title: "Block height",
    query: "ledger_blockchain_height",
    format: compactNumber,
    legend: byChannel("height"),
  },
  {
    id: "tx",
    title: "Transactions per minute",
    query: "sum by (channel) (rate(ledger_transaction_count[2m])) * 60",
    format: compactNumber,
    legend: byChannel("tx/min"),
  },
  {
    id: "endorse",
    title: "Endorsement duration (p95)",
    query: p95("endorser_proposal_duration"),
    format: seconds,
    legend: () => "p95",
  },
  {
    id: "grpc",
    title: "gRPC requests per second",
    query: "sum by (service) (rate(grpc_server_unary_requests_received[2m]))",
    format: compactNumber,
    legend: (m) => m.service ?? "requests/s",
  },
  {
    id: "grpc-errors",
    title: "gRPC errors per second",
    query: 'sum by (code) (rate(grpc_server_unary_requests_completed{code!="OK"}[2m]))',
    format: compactNumber,
    legend: (m) => m.code ?? "errors/s",
  },
];

const ORDERER: MetricPanel[] = [
  {
    id: "height",
    title: "Block height",
    query: "ledger_blockchain_height",
    format: compactNumber,
    legend: byChannel("height"),
  },
  {
    id: "leader",
    title: "Raft leader changes (15 min)",
    query: "sum by (channel) (increase(consensus_etcdraft_leader_changes[15m]))",
    format: compactNumber,
    legend: byChannel("changes"),
  },
  {
    id: "consensus",
    title: "Consensus latency (p95 of Raft persistence)",
    query: p95("consensus_etcdraft_data_persist_duration"),
    format: seconds,
    legend: () => "p95",
  },
  {
    id: "blocks",
    title: "Blocks cut per minute",
    query: "sum by (channel) (increase(ledger_blockchain_height[5m])) / 5",
    format: compactNumber,
    legend: byChannel("blocks/min"),
  },
];

const BESU: MetricPanel[] = [
  {
    id: "height",
    title: "Block height",
    query: "ethereum_blockchain_height",
    format: compactNumber,
    legend: () => "height",
  },
  { id: "peers", title: "Peers", query: "ethereum_peer_count", format: compactNumber, legend: () => "peers" },
];

/** Process panels every Fabric node (Go) has; Besu (Java) reports the first two only. */
const PROCESS: MetricPanel[] = [
  {
    id: "cpu",
    title: "CPU",
    query: "rate(process_cpu_seconds_total[2m])",
    format: percent,
    legend: () => "CPU",
  },
  {
    id: "memory",
    title: "Memory (resident)",
    query: "process_resident_memory_bytes",
    format: bytes,
    legend: () => "RSS",
  },
  { id: "goroutines", title: "Goroutines", query: "go_goroutines", format: compactNumber, legend: () => "goroutines" },
  {
    id: "fds",
    title: "Open file descriptors",
    query: "process_open_fds",
    format: compactNumber,
    legend: () => "fds",
  },
];

/** The panels of a node type: its own, then the process ones. */
export function panelsFor(nodeType: string): MetricPanel[] {
  if (nodeType === "FABRIC_PEER") return [...PEER, ...PROCESS];
  if (nodeType === "FABRIC_ORDERER") return [...ORDERER, ...PROCESS];
  return [...BESU, ...PROCESS.slice(0, 2)];
}

/** Time ranges of the picker; values in seconds. */
export const RANGES = [
  { label: "Last 15 minutes", value: 900 },
  { label: "Last hour", value: 3600 },
  { label: "Last 6 hours", value: 21_600 },
  { label: "Last 24 hours", value: 86_400 },
] as const;

/** Auto-refresh choices; values in ms (0 = off). */
export const REFRESHES = [
  { label: "Off", value: 0 },
  { label: "15 s", value: 15_000 },
  { label: "30 s", value: 30_000 },
  { label: "1 min", value: 60_000 },
] as const;
