// One ECharts instance as a React component: an option in, redrawn when it changes, resized with its box,
// disposed on unmount. To keep bundles small only the canvas renderer is registered here; the module that
// builds an option registers the chart types and components it uses, e.g.
//   import { use as registerCharts } from 'echarts/core';
//   import { LineChart } from 'echarts/charts';
//   import { GridComponent, TooltipComponent } from 'echarts/components';
//   registerCharts([LineChart, GridComponent, TooltipComponent]);
//   <EChart option={option} height={320} ariaLabel={t('…')} />
import { useEffect, useRef, type CSSProperties } from 'react';
import { init, use as registerCharts, type EChartsCoreOption, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { reducedMotion } from '../../app/motion.ts';

registerCharts([CanvasRenderer]);

/** A chart's box, with its ECharts instance. */
export type ChartElement = HTMLDivElement & { echartsInstance?: EChartsType };

export type ChartEventHandler = (params: unknown) => void;

export interface EChartProps {
  option: EChartsCoreOption;
  /** Height of the chart box (the width follows its container); default 300. */
  height?: number | string;
  style?: CSSProperties;
  className?: string;
  /** true: the option replaces the previous one (needed when series go away); default merge. */
  notMerge?: boolean;
  /** Shows ECharts' loading mask. */
  loading?: boolean;
  /** What the chart shows, for screen readers (the canvas itself says nothing). */
  ariaLabel?: string;
  /** ECharts events ('click', 'datazoom', …) and their handlers. */
  onEvents?: Record<string, ChartEventHandler>;
  /** The instance once created, for callers that need its API (dispatchAction, getDataURL). */
  onReady?: (chart: EChartsType) => void;
  'data-testid'?: string;
}

export function EChart({
  option,
  height = 300,
  style,
  className,
  notMerge = false,
  loading = false,
  ariaLabel,
  onEvents,
  onReady,
  'data-testid': testId,
}: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const readyRef = useRef(onReady);
  useEffect(() => {
    readyRef.current = onReady;
  });

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = init(element, undefined, { renderer: 'canvas' });
    chart.current = instance;
    // the instance on its element, as echarts.getInstanceByDom would give it: page checks read the layout of
    // titles and legends from it (the canvas has no text to measure)
    (element as ChartElement).echartsInstance = instance;
    readyRef.current?.(instance);
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (!instance.isDisposed()) instance.resize();
      });
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // for those who asked for less motion, series appear drawn instead of growing
    chart.current?.setOption(reducedMotion ? { ...option, animation: false } : option, { notMerge, lazyUpdate: true });
  }, [option, notMerge]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    if (loading) instance.showLoading();
    else instance.hideLoading();
  }, [loading]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || !onEvents) return;
    for (const [name, handler] of Object.entries(onEvents)) instance.on(name, handler);
    return () => {
      for (const [name, handler] of Object.entries(onEvents)) instance.off(name, handler);
    };
  }, [onEvents]);

  return (
    <div
      ref={box}
      className={className}
      style={{ width: '100%', height, ...style }}
      role={ariaLabel ? 'img' : undefined}
      aria-label={ariaLabel}
      data-testid={testId}
    />
  );
}
