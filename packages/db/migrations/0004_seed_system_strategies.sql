-- System strategies: read-only, owned by no user, offered to everyone beside their own.
INSERT INTO "strategies" ("user_id", "kind", "name", "no_of_grids", "params") VALUES (NULL, 'multigrid', 'Steady Ladder 10', 10, '{"type":"multigrid","No_of_order":10,"allotted_amount_percentage_per_order":[0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1],"buy_percentage":[1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5],"buy_percentage_up":[0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3],"takeprofit_percentage":[1.2,1.2,1.2,1.2,1.2,1.2,1.2,1.2,1.2,1.2],"takeprofit_percentage_down":[0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2]}'::jsonb)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "strategies" ("user_id", "kind", "name", "no_of_grids", "params") VALUES (NULL, 'multigrid', 'Deep Ladder 20', 20, '{"type":"multigrid","No_of_order":20,"allotted_amount_percentage_per_order":[0.025,0.0276,0.0303,0.0329,0.0355,0.0382,0.0408,0.0434,0.0461,0.0487,0.0513,0.0539,0.0566,0.0592,0.0618,0.0645,0.0671,0.0697,0.0724,0.075],"buy_percentage":[2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2],"buy_percentage_up":[0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5],"takeprofit_percentage":[1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5],"takeprofit_percentage_down":[0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3]}'::jsonb)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "strategies" ("user_id", "kind", "name", "no_of_grids", "params") VALUES (NULL, 'multigrid', 'Tight Range 5', 5, '{"type":"multigrid","No_of_order":5,"allotted_amount_percentage_per_order":[0.2,0.2,0.2,0.2,0.2],"buy_percentage":[0.8,0.8,0.8,0.8],"buy_percentage_up":[0.15,0.15,0.15,0.15],"takeprofit_percentage":[0.8,0.8,0.8,0.8,0.8],"takeprofit_percentage_down":[0.15,0.15,0.15,0.15,0.15]}'::jsonb)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "strategies" ("user_id", "kind", "name", "no_of_grids", "params") VALUES (NULL, 'scalping', 'Scalp Classic 5', 5, '{"type":"scalping","No_of_order":5,"allotted_amount_percentage_per_order":[0.2,0.2,0.2,0.2,0.2],"buy_percentage":[1,1,1,1],"takeprofit_percentage":1.5}'::jsonb)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "strategies" ("user_id", "kind", "name", "no_of_grids", "params") VALUES (NULL, 'scalping', 'Scalp Deep 10', 10, '{"type":"scalping","No_of_order":10,"allotted_amount_percentage_per_order":[0.05,0.05,0.07,0.08,0.09,0.1,0.11,0.13,0.15,0.17],"buy_percentage":[2,2,2,2,2,2,2,2,2],"takeprofit_percentage":3}'::jsonb)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "strategies" ("user_id", "kind", "name", "no_of_grids", "params") VALUES (NULL, 'scalping', 'Scalp Light 3', 3, '{"type":"scalping","No_of_order":3,"allotted_amount_percentage_per_order":[0.3,0.3,0.4],"buy_percentage":[1.5,1.5],"takeprofit_percentage":2}'::jsonb)
ON CONFLICT DO NOTHING;
