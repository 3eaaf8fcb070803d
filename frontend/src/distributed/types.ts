// The answer of the distributed route (docs/HTTP_API.md).

import type { CollectiveBrief, RankSplit } from "../panels/types";

export interface StepSplit extends Omit<RankSplit, "rank"> {
  step: number | null;
}

export interface RankSplits extends RankSplit {
  steps: StepSplit[];
}

/** One rank's row of a collective. */
export interface CollectiveRankRow extends Omit<CollectiveBrief, "slowest_rank"> {
  rank: number;
  group_size: number | null;
  collectives: string[];
  bytes_per_call: number | null;
}

export interface CollectiveRow extends CollectiveBrief {
  group_size: number | null;
  collectives: string[];
  bytes_per_call: number | null;
  ranks: number;
  per_rank: CollectiveRankRow[];
}

export interface DistributedAnswer {
  run: string;
  rank: number | null;
  distributed: boolean;
  ranks: RankSplits[];
  total: Omit<RankSplit, "rank">;
  collectives: CollectiveRow[];
  point_to_point: CollectiveRow[];
  empty_reason: string | null;
}
