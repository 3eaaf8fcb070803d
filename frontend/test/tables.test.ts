// base/paging.ts and base/labels.ts: the rows a page of a long table holds, its pager's words,
// and bar labels that never read the same for two different names.

import assert from "node:assert/strict";
import { test } from "node:test";
import { formatCount } from "../src/base/format";
import { distinctLabels, clipLabel } from "../src/base/labels";
import { pageOf, pageRangeText } from "../src/base/paging";

test("pageOf gives each page its rows and clamps pages past either end", () => {
  assert.deepEqual(pageOf(120, 0, 50), { page: 0, pages: 3, first: 0, end: 50 });
  assert.deepEqual(pageOf(120, 2, 50), { page: 2, pages: 3, first: 100, end: 120 });
  assert.deepEqual(pageOf(120, 7, 50), { page: 2, pages: 3, first: 100, end: 120 });
  assert.deepEqual(pageOf(120, -1, 50), { page: 0, pages: 3, first: 0, end: 50 });
  assert.deepEqual(pageOf(0, 0, 50), { page: 0, pages: 1, first: 0, end: 0 });
  assert.deepEqual(pageOf(50, 1, 50), { page: 0, pages: 1, first: 0, end: 50 });
  // a table that does not page: every row on one page
  assert.deepEqual(pageOf(70, 0, Number.POSITIVE_INFINITY), { page: 0, pages: 1, first: 0, end: 70 });
  assert.deepEqual(pageOf(70, 3, 0), { page: 0, pages: 1, first: 0, end: 70 });
});

test("pageRangeText says which rows of how many", () => {
  assert.equal(pageRangeText(pageOf(1234, 1, 50), 1234, formatCount), "rows 51–100 of 1,234");
  assert.equal(pageRangeText(pageOf(1234, 24, 50), 1234, formatCount), "rows 1,201–1,234 of 1,234");
  assert.equal(pageRangeText(pageOf(0, 0, 50), 0, formatCount), "no rows");
});

test("distinctLabels keeps unique labels and tells equal ones apart by their full names", () => {
  // Two different ATen kernels that shorten to the same name (real names, b200 trace).
  const full = [
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&)",
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&)",
    "volta_sgemm_128x64_nn",
  ];
  const labels = distinctLabels(["elementwise_kernel<MulFunctor>", "elementwise_kernel<MulFunctor>", "volta_sgemm_128x64_nn"], full);
  assert.equal(labels[2], "volta_sgemm_128x64_nn");
  assert.ok(labels[0]?.startsWith("elementwise_kernel"), labels[0]);
  assert.notEqual(labels[0], labels[1]);
  assert.equal(new Set(labels).size, 3);
  assert.ok(labels.every((label) => label.length <= 40), labels.join(" | "));
});

test("distinctLabels numbers labels whose full names differ only far along", () => {
  const lead = "x".repeat(10);
  const full = [`${lead}${"a".repeat(40)}1`, `${lead}${"a".repeat(40)}2`, `${lead}${"a".repeat(40)}2`];
  const labels = distinctLabels(["k", "k", "k"], full, 20);
  assert.equal(new Set(labels).size, 3, labels.join(" | "));
  assert.ok(labels.every((label) => label.length <= 20), labels.join(" | "));
});

test("distinctLabels keeps two operator names apart that read alike once cut to fit", () => {
  const names = ["aten::cudnn_convolution_backward_input", "aten::cudnn_convolution_backward_weight", "aten::mm"];
  const clipped = names.map((name) => clipLabel(name, 28));
  assert.equal(clipped[0], clipped[1]);
  assert.equal(clipped[2], "aten::mm");
  const labels = distinctLabels(names, names, 28);
  assert.equal(new Set(labels).size, 3, labels.join(" | "));
  assert.ok(labels.every((label) => label.length <= 28), labels.join(" | "));
  assert.ok(labels[0]?.includes("input") && labels[1]?.includes("weight"), labels.join(" | "));
});
