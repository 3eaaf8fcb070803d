// Bar labels that fit their column and never read the same for two different things. Pure.

/** Characters of the distinguishing part of a full name kept in a label. */
const TAIL_CHARACTERS = 16;

/** `label` cut to `max` characters with an ellipsis (the full text belongs in a tooltip). */
export function clipLabel(label: string, max: number): string {
  return label.length > max ? `${label.slice(0, Math.max(max - 1, 1))}…` : label;
}

/** Labels of at most `max` characters for items with short names that may coincide (or
 * coincide once cut to `max`): a unique one is its short name (cut); items that read alike
 * keep, after their cut short name, the start of where their full names differ
 * ("aten::cudnn_convolution… · weight"), and a number ("… (2)") if even that is alike.
 * `full[i]` is item i's identity. */
export function distinctLabels(short: readonly string[], full: readonly string[], max = 40): string[] {
  const labels = short.map((label) => clipLabel(label, max));
  const groups = new Map<string, number[]>();
  labels.forEach((label, index) => groups.set(label, [...(groups.get(label) ?? []), index]));
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const names = members.map((index) => full[index] ?? "");
    const lead = commonPrefixLength(names);
    members.forEach((index, position) => {
      const tail = clipLabel((names[position] ?? "").slice(lead).trim(), TAIL_CHARACTERS);
      const head = short[index] ?? "";
      labels[index] = tail === "" ? clipLabel(head, max) : `${clipLabel(head, max - tail.length - 3)} · ${tail}`;
    });
    numberRepeats(labels, members, max);
  }
  return labels;
}

function commonPrefixLength(names: readonly string[]): number {
  const first = names[0] ?? "";
  let length = 0;
  while (length < first.length && names.every((name) => name[length] === first[length])) length += 1;
  return length;
}

/** Labels of `members` that repeat an earlier one get " (2)", " (3)", ... within `max`. */
function numberRepeats(labels: string[], members: readonly number[], max: number): void {
  const seen = new Map<string, number>();
  for (const index of members) {
    const label = labels[index] ?? "";
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    if (count > 1) {
      const suffix = ` (${count})`;
      labels[index] = `${clipLabel(label, max - suffix.length)}${suffix}`;
    }
  }
}
